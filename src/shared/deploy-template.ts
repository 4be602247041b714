import { firstHiddenCharacter } from './command-safe-text.ts';

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
 * Where the shell is at a point of the template: inside single quotes, ANSI-C quotes (`$'…'`),
 * double quotes, a command substitution (`$(…)`, also `$((…))` and `((…))`, whose expressions
 * expand `$(…)` even inside single quotes), a backquoted one, or arithmetic of another
 * spelling: `$[…]`, and `[[…]]`, whose `-eq` and the like evaluate their operands (an array
 * subscript `a[$(…)]` in a value runs).
 */
type Context = "'" | "$'" | '"' | '$(' | '`' | '$[' | '[[';

/** Where a word may start: `[[` is a keyword only as a word of its own. */
const WORD_BREAK = /[\s;&|()]/;

/**
 * Returns a message when the template cannot be used, otherwise null. Each value is quoted
 * for the shell as one word, so a placeholder must stand as a word of its own at the top level
 * of the command: inside quotes (`"{serverTag}"`) the quoting would end the template's own
 * quote, and `$(…)` in a tag would run; inside a command substitution, arithmetic or `[[…]]`
 * it is read again; next to a quote, backslash, backtick or `$` it would join something the shell
 * interprets. The quotes are followed as bash reads them: a backslash escapes the next
 * character outside quotes, inside double quotes, ANSI-C quotes and backquotes, and nowhere
 * inside single quotes.
 */
export function validateTemplate(template: string): string | null {
  if (template === '') return 'must not be empty';
  if (/[\r\n]/.test(template)) return 'must be a single line';
  // A bidi control shows `rm -rf` where `fr- mr` stands, and the Deploy dialog asks a person
  // to confirm what they read; a control character acts in a terminal the command is pasted to.
  const hidden = firstHiddenCharacter(template);
  if (hidden) {
    return `must not contain a hidden control character (${hidden}): it would read differently from what it runs`;
  }
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name ?? '')) {
      return `unknown placeholder {${name}}; known: ${TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`;
    }
  }
  const stack: Context[] = [];
  for (let i = 0; i < template.length; i++) {
    const char = template[i]!;
    const next = template[i + 1];
    const context = stack.at(-1);
    // Filled wherever it stands, escaped or not (fill() replaces every one): checked first.
    const match = char === '{' ? /^\{([A-Za-z]+)\}/.exec(template.slice(i)) : null;
    if (match) {
      const before = template[i - 1];
      const after = template[i + match[0].length];
      if (
        context !== undefined ||
        (before !== undefined && QUOTING.has(before)) ||
        (after !== undefined && QUOTING.has(after))
      ) {
        return `placeholder {${match[1]}} must stand outside quotes and apart from quote, backslash, backtick and $ characters: each value is quoted for the shell already`;
      }
      i += match[0].length - 1;
      continue;
    }
    if (context === "'") {
      if (char === "'") stack.pop();
      continue;
    }
    // An escaped character is one unit: it neither opens nor closes anything. A backslash
    // before a placeholder is left to the check above, which refuses it.
    if (char === '\\' && next !== undefined && next !== '{') {
      i++;
      continue;
    }
    if (context === "$'") {
      if (char === "'") stack.pop();
      continue;
    }
    if (context === '`') {
      if (char === '`') stack.pop();
      continue;
    }
    if (context === '[[' && char === ']' && next === ']') {
      stack.pop();
      i++;
      continue;
    }
    if (context === '$[' && char === ']') {
      stack.pop();
      continue;
    }
    if (char === '`') {
      stack.push('`');
    } else if (char === '$' && next === '(') {
      stack.push('$(');
      i++;
    } else if (char === '$' && next === '[') {
      stack.push('$[');
      i++;
    } else if (
      char === '[' &&
      next === '[' &&
      context !== '"' &&
      (i === 0 || WORD_BREAK.test(template[i - 1]!))
    ) {
      stack.push('[[');
      i++;
    } else if (context === '"') {
      if (char === '"') stack.pop();
    } else if (char === "'") {
      stack.push("'");
    } else if (char === '"') {
      stack.push('"');
    } else if (char === '$' && next === "'") {
      stack.push("$'");
      i++;
    } else if (char === '$' && next === '"') {
      stack.push('"');
      i++;
    } else if (char === '(' && (context === '$(' || next === '(')) {
      // A parenthesis inside a substitution nests; `((` opens an arithmetic command.
      stack.push('$(');
    } else if (char === ')' && context === '$(') {
      stack.pop();
    }
  }
  if (stack.length > 0) return 'has an unclosed quote';
  return null;
}
