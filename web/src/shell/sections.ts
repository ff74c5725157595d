/** The dashboard's sections, switched inside '/' by `?section=` (document 1, section 2). */
export const sections = ['overview', 'api-tools', 'sheets', 'manychat', 'background-work', 'audit-log', 'config', 'docs'] as const;
export type Section = (typeof sections)[number];

/** The address of a section, with more of its own parameters (`&run=<id>` opens a run in Background work). */
export function sectionPath(section: Section, more: Record<string, string> = {}): string {
  const query = new URLSearchParams(section === 'overview' ? more : { section, ...more }).toString();
  return query ? `/?${query}` : '/';
}

/** The section a query string of '/' opens: the overview unless it names another one. */
export function sectionIn(params: URLSearchParams): Section {
  const requested = params.get('section');
  return (sections as readonly string[]).includes(requested ?? '') ? (requested as Section) : 'overview';
}
