/**
 * Client calls of the content area: the contact form, and the admin editors of posts, publications and messages. The
 * bodies are the types lib/backend/content builds them with.
 */
import type {
  BlogAdminPage,
  BlogPostAdmin,
  ContactAccepted,
  ContactMessage,
  ContactMessagePage,
  Publication,
  PublicationPage,
} from "@/lib/backend/responses";
import type { ContactInput, CreateBlogPost, CreatePublication, PatchBlogPost, PatchPublication } from "@/lib/schema/requests/content";
import { apiFetch, qs } from "./api";

export type { BlogPostAdmin, ContactMessage, Publication };

export const sendContact = (body: ContactInput) => apiFetch<ContactAccepted>("/api/contact", { method: "POST", json: body });

export const listAdminPosts = (q: { page: number; status?: string }) =>
  apiFetch<BlogAdminPage>(`/api/blog/admin/posts${qs({ page: q.page, limit: 20, ...(q.status ? { status: q.status } : {}) })}`);
export const getAdminPost = (id: string) => apiFetch<BlogPostAdmin>(`/api/blog/admin/posts/${encodeURIComponent(id)}`);
export const createPost = (body: Partial<CreateBlogPost> & { title: string }) =>
  apiFetch<BlogPostAdmin>("/api/blog/admin/posts", { method: "POST", json: body });
export const patchPost = (id: string, body: PatchBlogPost) =>
  apiFetch<BlogPostAdmin>(`/api/blog/admin/posts/${encodeURIComponent(id)}`, { method: "PATCH", json: body });
export const deletePost = (id: string) => apiFetch<null>(`/api/blog/admin/posts/${encodeURIComponent(id)}`, { method: "DELETE" });

export const listAdminPublications = (page: number) => apiFetch<PublicationPage>(`/api/publications${qs({ page, limit: 50, status: "all" })}`);
export const createPublication = (body: Partial<CreatePublication>) => apiFetch<Publication>("/api/publications", { method: "POST", json: body });
export const patchPublication = (id: string, body: PatchPublication) =>
  apiFetch<Publication>(`/api/publications/${encodeURIComponent(id)}`, { method: "PATCH", json: body });
export const deletePublication = (id: string) => apiFetch<null>(`/api/publications/${encodeURIComponent(id)}`, { method: "DELETE" });

export const listMessages = (q: { page: number; status?: string }) =>
  apiFetch<ContactMessagePage>(`/api/admin/contact-messages${qs({ page: q.page, limit: 50, ...(q.status ? { status: q.status } : {}) })}`);
export const setMessageStatus = (id: string, status: ContactMessage["status"]) =>
  apiFetch<{ id: string; status: string }>(`/api/admin/contact-messages/${encodeURIComponent(id)}`, { method: "PATCH", json: { status } });
