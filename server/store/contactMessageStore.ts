/**
 * SQL for contact messages (migration 003). Every query is scoped by the request's tenant.
 */
import type { Queryable } from '../db/database';

export interface NewContactMessage {
  userId?: string;
  activity: string;
  subscriptionId?: string;
  publication?: string;
  orderNumber?: string;
  missingOrderNumber: boolean;
  relatedTo?: string;
  contactDetails: Record<string, string>;
  message?: string;
  optIn: boolean;
  locale?: string;
  image?: { filename: string; mimeType: string; data: Buffer };
  mailedTo: string;
}

export interface StoredContactMessage extends Omit<NewContactMessage, 'image'> {
  id: string;
  createdAt: string;
  image?: { filename: string; mimeType: string; size: number };
}

export async function insertContactMessage(
  db: Queryable,
  tenantId: string,
  message: NewContactMessage,
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    `insert into contact_messages
       (tenant_id, user_id, activity, subscription_id, publication, order_number, missing_order_number, related_to,
        contact_details, message, opt_in, locale, image_filename, image_mime_type, image_data, mailed_to)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14, $15, $16)
     returning id`,
    [
      tenantId,
      message.userId ?? null,
      message.activity,
      message.subscriptionId ?? null,
      message.publication ?? null,
      message.orderNumber ?? null,
      message.missingOrderNumber,
      message.relatedTo ?? null,
      JSON.stringify(message.contactDetails),
      message.message ?? null,
      message.optIn,
      message.locale ?? null,
      message.image?.filename ?? null,
      message.image?.mimeType ?? null,
      message.image?.data ?? null,
      message.mailedTo,
    ],
  );
  return rows[0].id;
}

interface ContactMessageRow {
  id: string;
  user_id: string | null;
  activity: string;
  subscription_id: string | null;
  publication: string | null;
  order_number: string | null;
  missing_order_number: boolean;
  related_to: string | null;
  contact_details: Record<string, string>;
  message: string | null;
  opt_in: boolean;
  locale: string | null;
  image_filename: string | null;
  image_mime_type: string | null;
  image_size: number | null;
  mailed_to: string;
  created_at: string;
}

/** The tenant's messages, newest first (without the file bytes). */
export async function listContactMessages(db: Queryable, tenantId: string): Promise<StoredContactMessage[]> {
  const rows = await db.query<ContactMessageRow>(
    `select id, user_id, activity, subscription_id, publication, order_number, missing_order_number, related_to,
            contact_details, message, opt_in, locale, image_filename, image_mime_type,
            octet_length(image_data) as image_size, mailed_to, to_char(created_at, 'YYYY-MM-DD"T"HH24:MI:SS') as created_at
       from contact_messages where tenant_id = $1 order by created_at desc, id`,
    [tenantId],
  );
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id ?? undefined,
    activity: row.activity,
    subscriptionId: row.subscription_id ?? undefined,
    publication: row.publication ?? undefined,
    orderNumber: row.order_number ?? undefined,
    missingOrderNumber: row.missing_order_number,
    relatedTo: row.related_to ?? undefined,
    contactDetails: row.contact_details,
    message: row.message ?? undefined,
    optIn: row.opt_in,
    locale: row.locale ?? undefined,
    image: row.image_filename
      ? { filename: row.image_filename, mimeType: row.image_mime_type!, size: Number(row.image_size) }
      : undefined,
    mailedTo: row.mailed_to,
    createdAt: row.created_at,
  }));
}
