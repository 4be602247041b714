/** Placeholders a DEPLOY_COMMAND_TEMPLATE may use. Each value is shell-quoted on the way in. */
export const TEMPLATE_PLACEHOLDERS = [
  'accessToken',
  'serverTag',
  'host',
  'port',
  'username',
  'uiDir',
  'serverLabel',
  'code',
] as const;
export type Placeholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

export const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/** Characters that change what a quoted value means when they touch it. */
const QUOTING = new Set(["'", '"', '\\', '`', '$']);

/**
 * Returns a message when the template cannot be used, otherwise null. Each value is quoted
 * for the shell as one word, so a placeholder must stand as a word of its own: inside quotes
 * (`"{serverTag}"`) the quoting would end the template's own quote, and `$(…)` in a tag would
 * run; next to a quote, backslash, backtick or `$` it would join something the shell interprets.
 */
export function validateTemplate(template: string): string | null {
  if (template === '') return 'must not be empty';
  if (/[\r\n]/.test(template)) return 'must be a single line';
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name ?? '')) {
      return `unknown placeholder {${name}}; known: ${TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`;
    }
  }
  let quote: string | null = null;
  for (let i = 0; i < template.length; i++) {
    const char = template[i]!;
    if (quote === null && char === '\\' && template[i + 1] !== '{') {
      i++;
      continue;
    }
    if (char === "'" || char === '"') {
      if (quote === null) quote = char;
      else if (quote === char) quote = null;
      continue;
    }
    if (char !== '{') continue;
    const match = /^\{([A-Za-z]+)\}/.exec(template.slice(i));
    if (!match) continue;
    const before = template[i - 1];
    const after = template[i + match[0].length];
    if (
      quote !== null ||
      (before !== undefined && QUOTING.has(before)) ||
      (after !== undefined && QUOTING.has(after))
    ) {
      return `placeholder {${match[1]}} must stand outside quotes and apart from quote, backslash, backtick and $ characters: each value is quoted for the shell already`;
    }
    i += match[0].length - 1;
  }
  if (quote !== null) return 'has an unclosed quote';
  return null;
}
