"""Builds the API reference (stands in for sphinx)."""
for page in range(1, 61):
    print(f"[docs] writing output... [{page * 100 // 60:3d}%] api/function_{page:02d}")
print("[docs] build succeeded, 2 warnings.")
print("[docs] WARNING: docs/api/errors.rst:12: duplicate label errors-table, other instance in docs/api/channel.rst")
print("[docs] WARNING: undefined label: 'error-handling'")
