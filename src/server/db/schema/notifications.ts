/** Users' notifications and the kinds they turned off. */
export interface NotificationsSchema {
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
}

/** One notification of one user in one account (modules/notifications); read_at null = unread. */
export interface NotificationsTable {
  id: string;
  user_id: string;
  account_id: string;
  kind: string;
  title: string;
  body: string;
  severity: string;
  created_at: string;
  read_at: string | null;
  target_type: string | null;
  target_id: string | null;
  target_parent_id: string | null;
}

/** A kind a user turned on or off; kinds without a row are on. */
export interface NotificationPreferencesTable {
  user_id: string;
  kind: string;
  enabled: number;
}
