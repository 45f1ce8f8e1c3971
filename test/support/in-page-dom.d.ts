/**
 * The members of page elements the browser tests read inside playwright's page callbacks. This program has no DOM
 * library: playwright names the DOM's element types, and @types/react (loaded for the terminal inbox's Ink) declares
 * them empty for such programs, so the few members read are declared here (merged into its `Element`).
 */
interface Element {
  getAttribute(name: string): string | null;
  readonly textContent: string | null;
}
