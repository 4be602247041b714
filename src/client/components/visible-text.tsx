import { splitHidden } from '#shared/command-safe-text.ts';

/**
 * Text with its control, bidi and zero-width characters shown as `U+0003` markers: such a
 * character in a stored tag or server field is invisible, yet it is why that client's commands
 * are withheld, so staff must be able to see it.
 */
export function VisibleText({ text }: { text: string }) {
  const parts = splitHidden(text);
  if (parts.every((part) => !part.hidden)) return <>{text}</>;
  return (
    <>
      {parts.map((part, index) =>
        part.hidden ? (
          <mark
            key={index}
            aria-label={`hidden character ${part.text}`}
            style={{
              background: 'var(--mantine-color-red-light)',
              color: 'var(--mantine-color-red-light-color)',
              fontFamily: 'var(--mantine-font-family-monospace)',
              borderRadius: 2,
              padding: '0 2px',
            }}
          >
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
