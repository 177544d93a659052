print("cabin")
