/** Removes index.html's boot screen once React shows a page (or an error) in its place. */
export function removeBootScreen() {
  document.getElementById('boot')?.remove();
}
