// CabinSession: placeholder; see module overview.
