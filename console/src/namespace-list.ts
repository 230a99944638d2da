/** The namespaces a filter's namespace field offers (NamespaceOptions). */
import type { Api, NamespaceList } from "./api";
import type { SharedNamespace } from "./shared";
import { type Loaded, useLoad } from "./ui";

/**
 * The owner's namespaces, to pick from. The namespaces are the owner's own to list; a grantee
 * sees the one it was given: none are listed in a shared namespace.
 */
export function useNamespaceList(api: Api, shared: SharedNamespace | null): Loaded<NamespaceList> {
  return useLoad(
    (signal) =>
      shared
        ? Promise.resolve<NamespaceList>({ namespaces: [], total: 0 })
        : api.get<NamespaceList>("/v1/namespaces", {}, { signal }),
    "",
  );
}
