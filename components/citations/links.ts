/** Where the citator links: a judgment's page, a provision's page (its id keeps its slashes, each segment encoded). */
export const documentHref = (id: string) => `/documents/${encodeURIComponent(id)}`;

export const provisionHref = (id: string) => `/legislation/${id.split("/").map(encodeURIComponent).join("/")}`;
