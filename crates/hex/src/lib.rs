//! zermelo-hex: Hex on small boards.
