import { Box, Tabs } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

export interface PageTab {
  /** What `?tab=` holds for it. */
  value: string;
  label: string;
  /** A shorter label for phones (below md), when the label is too long for them. */
  shortLabel?: string;
  content: ReactNode;
}

/**
 * A page's tabs, the chosen one kept in `?tab=` (a reload or a shared link opens it again; an unknown
 * value opens the first). A tab's content mounts only while it is chosen, so its calls are made
 * only once it is opened. On a phone the tab list scrolls sideways instead of widening the page.
 */
export function SearchParamTabs({ tabs }: { tabs: readonly PageTab[] }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const current = tabs.find((tab) => tab.value === requested)?.value ?? tabs[0]?.value;
  return (
    <Tabs.Root value={current} onValueChange={(event) => setParams({ tab: event.value }, { replace: true })} lazyMount unmountOnExit variant="line">
      <Tabs.List overflowX="auto" overflowY="hidden" mb="2">
        {tabs.map((tab) => (
          <Tabs.Trigger key={tab.value} value={tab.value} flexShrink="0">
            {tab.shortLabel ? (
              <>
                <Box as="span" hideBelow="md">{tab.label}</Box>
                <Box as="span" hideFrom="md">{tab.shortLabel}</Box>
              </>
            ) : (
              tab.label
            )}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Content key={tab.value} value={tab.value}>{tab.content}</Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
