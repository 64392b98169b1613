// Filled in by the spill work (see DESIGN.md).
export {}
