import { z } from 'zod';

export const adminSearchSchema = z.object({ query: z.string().trim().max(200).default('') });
export type AdminSearch = z.output<typeof adminSearchSchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  accountCount: z.number(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  memberCount: z.number(),
});
export type AdminAccount = z.infer<typeof adminAccountSchema>;
