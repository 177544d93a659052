public enum VoiceRecipes {
    public static let all: [SoundRecipe] = []
}
