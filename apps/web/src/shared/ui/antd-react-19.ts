import { unstableSetRender } from 'antd-mobile';
import { createRoot, type Root } from 'react-dom/client';

/**
 * antd-mobile v5 renders Toast and Dialog with ReactDOM.render, which React 19 removed. Its guide
 * ("v5 for 19") gives this shim: render them with createRoot instead.
 */
const roots = new WeakMap<Element | DocumentFragment, Root>();

export function installAntdReact19Shim(): void {
  // The documented React 19 adapter of antd-mobile v5; marked deprecated only because v6 drops it.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  unstableSetRender((node, container) => {
    let root = roots.get(container);
    if (root === undefined) {
      root = createRoot(container);
      roots.set(container, root);
    }
    root.render(node);
    const mounted = root;
    return async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      mounted.unmount();
      roots.delete(container);
    };
  });
}
