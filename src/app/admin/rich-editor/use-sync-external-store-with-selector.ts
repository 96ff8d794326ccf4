import { useDebugValue, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';

/**
 * `use-sync-external-store/shim/with-selector` for the client build (vite.config.ts), over React's
 * own hook: @tiptap/react's useEditorState reads the editor through it. A component re-renders only
 * when its selection changes: the selector runs again only for a new snapshot, and a new selection
 * that `isEqual` calls equal to the last one is replaced by that one, so React sees no change.
 */
export function useSyncExternalStoreWithSelector<Snapshot, Selection>(
  subscribe: (onStoreChange: () => void) => () => void,
  getSnapshot: () => Snapshot,
  getServerSnapshot: (() => Snapshot) | null | undefined,
  selector: (snapshot: Snapshot) => Selection,
  isEqual?: (a: Selection, b: Selection) => boolean,
): Selection {
  // What was rendered last: a selector given anew on a render compares with it first.
  const rendered = useRef<{ value: Selection } | null>(null);
  const [getSelection, getServerSelection] = useMemo(() => {
    let memo: { snapshot: Snapshot; selection: Selection } | null = null;
    const select = (snapshot: Snapshot): Selection => {
      if (memo && Object.is(memo.snapshot, snapshot)) return memo.selection;
      const next = selector(snapshot);
      const last = memo ? { value: memo.selection } : rendered.current;
      const selection = last && isEqual?.(last.value, next) ? last.value : next;
      memo = { snapshot, selection };
      return selection;
    };
    return [
      () => select(getSnapshot()),
      getServerSnapshot ? () => select(getServerSnapshot()) : undefined,
    ] as const;
  }, [getSnapshot, getServerSnapshot, selector, isEqual]);
  const value = useSyncExternalStore(subscribe, getSelection, getServerSelection);
  useEffect(() => {
    rendered.current = { value };
  }, [value]);
  useDebugValue(value);
  return value;
}
