import type { MouseEvent } from 'react';
import classes from './skip-link.module.css';

/** The id of the page's `<main>`, which must also have tabIndex -1 to take focus. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * The first Tab stop of a page: past the header and navigation to the page's content. Focus is
 * moved by hand: following the `#` link would add a history entry the router then reads.
 */
export function SkipLink() {
  function skip(event: MouseEvent<HTMLAnchorElement>) {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
  }
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className={classes.link} onClick={skip}>
      Skip to main content
    </a>
  );
}
