/**
 * Document 3 §8: the clipboard API first; where it is missing or refused (in-app browsers, plain
 * HTTP) a hidden text area is selected and copied the old way. False when both fail.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard API');
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return copyThroughTextArea(text);
  }
}

function copyThroughTextArea(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  // Off screen, yet selectable: display:none or visibility:hidden could not be selected and copied.
  Object.assign(area.style, { position: 'fixed', top: '0', left: '-9999px', opacity: '0' });
  document.body.appendChild(area);
  try {
    area.select();
    area.setSelectionRange(0, text.length);
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
