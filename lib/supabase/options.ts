import WebSocket from "ws";

/**
 * Options every server-side Supabase client needs. supabase-js builds a Realtime client eagerly and refuses to on
 * Node < 22 without a WebSocket implementation, even though we never subscribe; `ws` is that implementation.
 */
export const realtimeOptions = { transport: WebSocket as unknown as typeof globalThis.WebSocket };

export const serverAuthOptions = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } as const;
