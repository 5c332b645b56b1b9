/**
 * Request header the middleware sets (after deleting any the client sent) when it has just given a guest its
 * `guest_session_id` cookie: the /search page may mint the guest session under exactly that id
 * (lib/api/page-search.ts). Its own module so the middleware does not load the page's search code.
 */
export const GUEST_MINT_HEADER = "x-guest-mint";
