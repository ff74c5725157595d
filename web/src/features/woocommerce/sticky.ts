/** A table's action column stays in view while the wide table scrolls sideways (as in the price table). */
export const stickyEnd = { position: 'sticky', right: '0', bg: 'bg', boxShadow: 'inset 1px 0 0 var(--chakra-colors-border)' } as const;
