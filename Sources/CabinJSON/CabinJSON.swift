// CabinJSON placeholder
