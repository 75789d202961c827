import { createContext, use } from 'react';
import appCss from '../app.css?url';

/**
 * The app's stylesheet inlined in the server-rendered `<head>` (one `<style>` instead of a
 * render-blocking request: the whole Tailwind build is ≈ 72 KB raw / 12.5 KB gzip, small enough to
 * send with every page, so there is no separate "critical" subset to keep in sync).
 *
 * The server entry reads the built CSS file and provides its text through this context; the browser
 * finds the `<style id="app-css">` the server wrote and renders it with the same text, so hydration
 * matches and React never touches it. Without a build (the Vite dev server) or when the file cannot
 * be read, the usual `<link rel="stylesheet">` is rendered instead.
 */
export const InlineCssContext = createContext<string | undefined>(undefined);

const ID = 'app-css';
/** In the browser: the text of the server's inline stylesheet, read once before hydration. */
const clientCss = typeof document === 'undefined' ? undefined : (document.getElementById(ID)?.textContent ?? undefined);

export function AppStyles() {
  const serverCss = use(InlineCssContext);
  const css = typeof document === 'undefined' ? serverCss : clientCss;
  if (css === undefined) return <link rel="stylesheet" href={appCss} />;
  return <style id={ID} dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />;
}

/** The inline stylesheet's href (the server entry reads `build/client` + this). */
export const appCssHref = appCss;
