import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ref, responses } from '../shared/schemas.js';
import { getPreferences, setPreferences } from './preferences.js';
import { NotificationPreferences, NotificationPreferencesBody } from './schemas.js';

// The caller's notification preferences (docs/alerts.md): with a token or the session cookie alike.

const TAGS = ['Notifications'];

export const alertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/user/notifications',
    {
      schema: {
        operationId: 'getNotificationPreferences',
        tags: TAGS,
        summary: 'Get my notification preferences',
        description: 'Whether the caller gets the daily email digest of reminders and alerts from their labs (on by default).',
        response: responses({ 200: ref(NotificationPreferences) }, [401]),
      },
    },
    async (request) => getPreferences(db, request.actor),
  );

  app.put(
    '/user/notifications',
    {
      schema: {
        operationId: 'updateNotificationPreferences',
        tags: TAGS,
        summary: 'Change my notification preferences',
        description:
          'Turns the daily email digest of reminders and alerts on or off for the caller, in every organization. Webhooks are not affected.',
        body: NotificationPreferencesBody,
        response: responses({ 200: ref(NotificationPreferences) }, [401, 422]),
      },
    },
    async (request) => setPreferences(db, request.actor, request.body),
  );
};
