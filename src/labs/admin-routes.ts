import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import {
  addOrganizationLabMember,
  createOrganizationLab,
  listLabMembers,
  listOrganizationLabs,
  removeOrganizationLabMember,
  setLabMemberRole,
  updateOrganizationLab,
} from './admin.js';
import { UpdateLabMemberBody } from './approval-schemas.js';
import { AddLabMemberBody, CreateOrganizationLabBody, LabMember, OrganizationLab, UpdateOrganizationLabBody } from './schemas.js';

// Organization administration of labs and lab memberships, for org admins (docs/auth.md).

const TAGS = ['Organization administration'];
const LabParams = Type.Object({ id: Uuid });

export const labAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/organization/labs',
    {
      schema: {
        operationId: 'listOrganizationLabs',
        tags: TAGS,
        summary: "List the organization's labs",
        description: 'Org admins: every lab, archived ones included.',
        querystring: Type.Object(PageQuery),
        response: responses({ 200: Type.Array(ref(OrganizationLab)) }, [401, 403, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, labs } = await listOrganizationLabs(db, request.actor, page);
      setPageHeaders(request, reply, page, total);
      return labs;
    },
  );

  app.post(
    '/organization/labs',
    {
      schema: {
        operationId: 'createOrganizationLab',
        tags: TAGS,
        summary: 'Create a lab',
        body: CreateOrganizationLabBody,
        response: responses({ 201: ref(OrganizationLab) }, [401, 403, 422]),
      },
    },
    async (request, reply) => reply.code(201).send(await createOrganizationLab(db, request.actor, request.body)),
  );

  app.put(
    '/organization/labs/:id',
    {
      schema: {
        operationId: 'updateOrganizationLab',
        tags: TAGS,
        summary: 'Rename, archive or restore a lab',
        params: LabParams,
        body: UpdateOrganizationLabBody,
        response: responses({ 200: ref(OrganizationLab) }, [401, 403, 404, 422]),
      },
    },
    async (request) => updateOrganizationLab(db, app.deps.config.appUrl, request.actor, request.params.id, request.body),
  );

  app.get(
    '/organization/labs/:id/members',
    {
      schema: {
        operationId: 'listLabMembers',
        tags: TAGS,
        summary: "List a lab's members",
        params: LabParams,
        response: responses({ 200: Type.Array(ref(LabMember)) }, [401, 403, 404, 422]),
      },
    },
    async (request) => listLabMembers(db, request.actor, request.params.id),
  );

  app.post(
    '/organization/labs/:id/members',
    {
      schema: {
        operationId: 'addLabMember',
        tags: TAGS,
        summary: 'Add a member to a lab',
        description:
          "A user of the organization, with `role` (default member). 201 when added, 200 when they already belonged to the lab (a given role replaces theirs). Org admins and the lab's managers.",
        params: LabParams,
        body: AddLabMemberBody,
        response: responses({ 200: Type.Array(ref(LabMember)), 201: Type.Array(ref(LabMember)) }, [401, 403, 404, 422]),
      },
    },
    async (request, reply) => {
      const added = await addOrganizationLabMember(db, request.actor, request.params.id, request.body.user_id, request.body.role);
      return reply.code(added ? 201 : 200).send(await listLabMembers(db, request.actor, request.params.id));
    },
  );

  app.put(
    '/organization/labs/:id/members/:userId',
    {
      schema: {
        operationId: 'updateLabMember',
        tags: TAGS,
        summary: "Set a lab member's role",
        description: "member, approver or manager (docs/ordering.md). Org admins and the lab's managers.",
        params: Type.Object({ id: Uuid, userId: Uuid }),
        body: UpdateLabMemberBody,
        response: responses({ 200: ref(LabMember) }, [401, 403, 404, 422]),
      },
    },
    async (request) => setLabMemberRole(db, request.actor, request.params.id, request.params.userId, request.body.role),
  );

  app.delete(
    '/organization/labs/:id/members/:userId',
    {
      schema: {
        operationId: 'removeLabMember',
        tags: TAGS,
        summary: 'Remove a member from a lab',
        params: Type.Object({ id: Uuid, userId: Uuid }),
        response: responses({ 204: Type.Null() }, [401, 403, 404, 422]),
      },
    },
    async (request, reply) => {
      await removeOrganizationLabMember(db, request.actor, request.params.id, request.params.userId);
      return reply.code(204).send();
    },
  );
};
