//! zermelo-grundy: Sprague–Grundy tables of impartial games.
