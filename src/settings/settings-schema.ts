import { z } from 'zod';
import { isMediaReference } from '../media/media-reference.ts';

export const SETTINGS_MESSAGES = {
  saved: 'Settings saved',
  saveFailed: 'Failed to save settings',
  socialUrl: 'Enter a link starting with http:// or https://, or leave it empty',
  contactEmail: 'Enter an email address such as you@example.com, or leave it empty',
  imageUrl: 'Enter an image link starting with http:// or https://, an uploaded image, or leave it empty',
  required: 'Please fill in all required fields',
  homeHeadline: 'Keep the home headline to 200 characters or fewer',
  shippingNote: 'Keep the shipping note to 1,000 characters or fewer',
  returnsNote: 'Keep the returns note to 1,000 characters or fewer',
} as const;

const socialLink = z
  .string()
  .trim()
  .max(500)
  .default('')
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), SETTINGS_MESSAGES.socialUrl);

/** The one schema of the blog settings form: the admin form action and PUT /api/settings share it. */
export const blogSettingsSchema = z.object({
  title: z.string().trim().min(1, SETTINGS_MESSAGES.required).max(100),
  description: z.string().trim().min(1, SETTINGS_MESSAGES.required).max(500),
  authorName: z.string().trim().min(1, SETTINGS_MESSAGES.required).max(100),
  authorBio: z.string().trim().min(1, SETTINGS_MESSAGES.required).max(2000),
  authorProfileImage: z
    .string()
    .trim()
    .max(2000)
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v === null || isMediaReference(v), SETTINGS_MESSAGES.imageUrl),
  // Optional: the home page shows the title and description without it.
  homeHeadline: z
    .string()
    .trim()
    .max(200, SETTINGS_MESSAGES.homeHeadline)
    .nullish()
    .transform((v) => v || null),
  // Optional: a product page without them shows neither.
  shippingNote: z
    .string()
    .trim()
    .max(1000, SETTINGS_MESSAGES.shippingNote)
    .nullish()
    .transform((v) => v || null),
  returnsNote: z
    .string()
    .trim()
    .max(1000, SETTINGS_MESSAGES.returnsNote)
    .nullish()
    .transform((v) => v || null),
  socialLinks: z
    .object({ youtube: socialLink, github: socialLink, twitter: socialLink, linkedin: socialLink })
    .default({ youtube: '', github: '', twitter: '', linkedin: '' }),
  contactEmail: z
    .string()
    .trim()
    .max(254)
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v === null || z.email().safeParse(v).success, SETTINGS_MESSAGES.contactEmail),
  shopRequiresSignIn: z.boolean().default(false),
  // Left out (an API client that predates it), it stays as it is: a save never lowers it by omission.
  requireAdminTwoFactor: z.boolean().optional(),
  // The same: a client that predates the Analytics switch leaves it as it is.
  analytics: z.boolean().optional(),
});

export type BlogSettingsInput = z.output<typeof blogSettingsSchema>;
