/**
 * Copies text and says whether it worked. Failures are logged, not shown: the user sees the
 * text on screen and can select it by hand.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
    // The async clipboard only exists in secure contexts; a self-hosted install reached over
    // plain http on a LAN still deserves a working copy button.
    if (copyWithSelection(text)) return true;
    console.error('Copy failed: no clipboard available in this context');
    return false;
  } catch (error) {
    console.error('Copy failed:', error);
    return false;
  }
}

function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    // Deprecated, but the only synchronous fallback outside secure contexts.
    return document.execCommand('copy');
  } finally {
    area.remove();
  }
}
