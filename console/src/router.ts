/**
 * Hash routes, so every screen has an address (back button, bookmarks) while the Worker only
 * ever serves `/`: #/memories, #/memory/<id>, #/query, #/graph/<id>, #/insights, #/transfer,
 * #/sharing, #/activity.
 */
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { view: "memories" }
  | { view: "memory"; id: string }
  | { view: "query" }
  | { view: "graph"; id: string | null }
  | { view: "insights" }
  | { view: "transfer" }
  | { view: "sharing" }
  | { view: "activity" };

export function parseRoute(hash: string): Route {
  const [, view = "", id = ""] = hash.replace(/^#/, "").split("/");
  const memoryId = decodeURIComponent(id);
  switch (view) {
    case "memory":
      return memoryId ? { view: "memory", id: memoryId } : { view: "memories" };
    case "query":
      return { view: "query" };
    case "graph":
      return { view: "graph", id: memoryId || null };
    case "insights":
      return { view: "insights" };
    case "transfer":
      return { view: "transfer" };
    case "sharing":
      return { view: "sharing" };
    case "activity":
      return { view: "activity" };
    default:
      return { view: "memories" };
  }
}

export function href(route: Route): string {
  switch (route.view) {
    case "memory":
      return `#/memory/${encodeURIComponent(route.id)}`;
    case "graph":
      return route.id ? `#/graph/${encodeURIComponent(route.id)}` : "#/graph";
    default:
      return `#/${route.view}`;
  }
}

export function navigate(route: Route): void {
  location.hash = href(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
