const MAIN_SCRIPT = /<script[^>]+type="module"[^>]+src="([^"]+)"/;

function loadedMainScript(): string | null {
  const script = document.querySelector<HTMLScriptElement>('script[type="module"][src]');
  return script?.getAttribute('src') ?? null;
}

let checking: Promise<void> | null = null;

/**
 * On a production build, reloads the page when the server's index page names another main
 * script than the one running, i.e. a new version was deployed. Called on each route change.
 */
export function checkForNewDeployment(): Promise<void> {
  if (!import.meta.env.PROD || checking) return checking ?? Promise.resolve();
  checking = (async () => {
    try {
      const response = await fetch('/', { cache: 'no-store', headers: { accept: 'text/html' } });
      if (!response.ok) return;
      const served = MAIN_SCRIPT.exec(await response.text())?.[1];
      const loaded = loadedMainScript();
      if (served && loaded && served !== loaded) window.location.reload();
    } catch {
      // Offline or server restarting: check again on the next route change.
    } finally {
      checking = null;
    }
  })();
  return checking;
}
