// folio serve: live reload. Keeps the scroll position across reloads, swaps
// changed stylesheets in place, shows a failed build over the page.
(() => {
  const key = "folio-scroll:" + location.pathname;
  const kept = sessionStorage.getItem(key);
  if (kept !== null) {
    sessionStorage.removeItem(key);
    const restore = () => scrollTo(0, Number(kept));
    document.readyState === "complete" ? restore() : addEventListener("load", restore);
  }
  const overlay = (text) => {
    let box = document.getElementById("folio-overlay");
    if (text === null) return box && box.remove();
    if (!box) {
      box = document.createElement("pre");
      box.id = "folio-overlay";
      box.style.cssText = "position:fixed;inset:0;margin:0;padding:2em;z-index:2147483647;" +
        "overflow:auto;white-space:pre-wrap;background:rgba(30,0,0,.94);color:#fff;" +
        "font:14px/1.5 ui-monospace,monospace";
      document.body.append(box);
    }
    box.textContent = "folio: the last save did not build\n\n" + text;
  };
  const events = new EventSource("/__folio/live");
  events.addEventListener("reload", () => {
    sessionStorage.setItem(key, String(scrollY));
    location.reload();
  });
  // A fingerprinted sheet (asset_url) is the same sheet under a new name.
  const unnamed = (path) => path.replace(/\.[0-9a-f]{20}(\.css)$/, "$1");
  events.addEventListener("stylesheets", (e) => {
    const changed = JSON.parse(e.data);
    for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
      const url = new URL(link.href);
      if (url.origin !== location.origin) continue;
      const path = changed.find((sheet) => sheet === url.pathname) ??
        changed.find((sheet) => unnamed(sheet) === unnamed(url.pathname));
      if (path === undefined) continue;
      const fresh = link.cloneNode();
      // Its old integrity is not the new sheet's.
      fresh.removeAttribute("integrity");
      fresh.href = path + "?folio=" + Date.now();
      fresh.onload = () => link.remove();
      link.after(fresh);
    }
  });
  events.addEventListener("failed", (e) => overlay(e.data));
  events.addEventListener("recovered", () => overlay(null));
})();
