// Filled in by the select work (see DESIGN.md).
export {}
