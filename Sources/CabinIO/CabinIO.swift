// CabinIO placeholder
