// The table-building chat (POST /api/ai/chat/), group "chat".
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { withAliases } from '../../../core/http/service-app.ts';
import { chatSchema } from '../schemas/chat.ts';
import { ADDRESSES, RATE_LIMITS, required } from './common.ts';
import type { ServiceRoutes } from '../../../core/service.ts';
import type { KrtState } from '../state.ts';

export const chatRoutes: ServiceRoutes<KrtState> = async (app, ctx) => {
  const { answers } = ctx.state;
  await rateLimitedGroup(app, ctx, { name: 'chat', max: RATE_LIMITS.chat }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.post('/api/ai/chat/', { schema: chatSchema, config: { operation: 'chat' } }, async (request) =>
        answers.chat(required(request.body.message, 'message'), request.body.session_id?.trim() || undefined),
      );
    }),
  );
};
