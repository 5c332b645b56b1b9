"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { SessionUser } from "@/lib/api/pages";

const UserContext = createContext<SessionUser | null>(null);

/** The signed-in user as the server saw it when rendering the layout. */
export function UserProvider({ user, children }: { user: SessionUser | null; children: ReactNode }) {
  return <UserContext.Provider value={user}>{children}</UserContext.Provider>;
}

export function useSessionUser(): SessionUser | null {
  return useContext(UserContext);
}
