public enum RadioRecipes {
    public static let all: [SoundRecipe] = []
}
