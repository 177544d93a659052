// CabinHaptics: placeholder; see module overview.
