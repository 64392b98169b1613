// Filled in by the disclose work (see DESIGN.md).
export {}
