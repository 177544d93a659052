public enum UIRecipes {
    public static let all: [SoundRecipe] = []
}
