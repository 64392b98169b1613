// Filled in by the store work (see DESIGN.md).
export {}
