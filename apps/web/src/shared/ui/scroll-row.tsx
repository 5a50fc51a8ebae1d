import { useEffect, useRef, useState, type HTMLAttributes, type ReactNode } from 'react';

/**
 * A row that scrolls sideways (segment tabs) and shows that it does: a fade and a chevron on each side that
 * has more to see, updated as the row scrolls or changes size. When `active` changes, the selected tab
 * (aria-selected) is scrolled into view, so a tab chosen from a link is never hidden past the edge; other
 * renders (a quote tick) leave the reader's own scrolling alone.
 */
export function ScrollRow({
  children,
  className = '',
  active,
  ...attributes
}: { children: ReactNode; className?: string; active?: string } & HTMLAttributes<HTMLDivElement>) {
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ start: false, end: false });

  useEffect(() => {
    const row = ref.current;
    if (!row) return;
    const measure = () => {
      // one pixel of slack: fractional widths at some zoom levels leave a sub-pixel overflow
      const start = row.scrollLeft > 1;
      const end = row.scrollLeft + row.clientWidth < row.scrollWidth - 1;
      setMore((m) => (m.start === start && m.end === end ? m : { start, end }));
    };
    measure();
    row.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(row);
    return () => {
      row.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, []);

  useEffect(() => {
    const selected = ref.current?.querySelector<HTMLElement>('[aria-selected="true"]');
    selected?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active]);

  return (
    <div
      className="scroll-row"
      data-more-start={more.start || undefined}
      data-more-end={more.end || undefined}
    >
      <div ref={ref} className={`scroll-row__track ${className}`.trim()} {...attributes}>
        {children}
      </div>
    </div>
  );
}
