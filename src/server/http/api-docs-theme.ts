/**
 * What /api/docs adds to Swagger UI's own files so the page passes the WCAG 2.1 AA checks every
 * other screen passes (e2e/api-docs.spec.ts scans it). Swagger UI's colours for the method
 * badges, the Authorize button, the version badges, the document's link and a parameter's
 * place are lighter than AA allows on their backgrounds; these are the same hues, darker.
 */
export const API_DOCS_CSS = `
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1c64b0; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #18794e; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a4d00; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #00796b; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c62828; }
.swagger-ui .btn.authorize { border-color: #18794e; color: #18794e; }
.swagger-ui .btn.authorize svg { color: #18794e; }
.swagger-ui .info .title small { background: #4b5563; }
.swagger-ui .info .title small.version-stamp { background: #3f6b00; }
.swagger-ui .info a { color: #1f5fa8; }
.swagger-ui .parameter__in { color: #595959; }
/* An example grows with its text instead of scrolling inside a box a keyboard cannot reach. */
.swagger-ui .highlight-code > .microlight { max-height: none; overflow-y: visible; }
`;

/**
 * Names the one control Swagger UI leaves without a name: a parameter's list of allowed values
 * gets the parameter's name. Swagger UI renders and re-renders as people open operations, so
 * this follows the page's changes.
 */
export const API_DOCS_JS = `
(function () {
  function nameSelects() {
    document.querySelectorAll('tr[data-param-name] select:not([aria-label])').forEach(function (select) {
      select.setAttribute('aria-label', select.closest('tr').getAttribute('data-param-name'));
    });
  }
  new MutationObserver(nameSelects).observe(document.body, { childList: true, subtree: true });
})();
`;
