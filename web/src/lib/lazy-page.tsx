import { lazy, useState, type ComponentType, type ReactElement } from 'react';
import { loadTexts, type TextBundle } from '../i18n';

export interface LazyPage<Props> {
  (props: Props): ReactElement;
  /** Starts fetching the code and the texts now; once both are in, the page renders without suspending. */
  preload(): Promise<void>;
}

/**
 * A page (or a section of one) in its own chunk, fetched together with the parts of the catalogue
 * its code uses, in the language in use: React.lazy over both. A page preloaded before it is first
 * rendered is rendered directly: React.lazy alone suspends on its first render even when its code
 * has arrived, and a Suspense boundary that has just shown its fallback holds the content back for
 * about 300 ms more.
 */
export function lazyPage<Props extends object>(load: () => Promise<{ default: ComponentType<Props> }>, ...bundles: TextBundle[]): LazyPage<Props> {
  let loaded: ComponentType<Props> | null = null;
  let loading: Promise<{ default: ComponentType<Props> }> | null = null;
  const fetchBoth = () =>
    (loading ??= Promise.all([load(), loadTexts(...bundles)]).then(
      ([module]) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  const Lazy = lazy(fetchBoth);
  function Page(props: Props): ReactElement {
    // Chosen once per mount, so a page never swaps its component (and loses its state) midway.
    const [Component] = useState<ComponentType<Props>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Page, { preload: () => fetchBoth().then(() => undefined) });
}
