import { type Static, Type } from 'typebox';
import { Money, orNull, ref, Uuid } from '../shared/schemas.js';

// Lab roles and the approval rule (docs/ordering.md): what GET/PUT /labs/{id}/approval-settings and the lab
// membership operations read and write.

export const LabRoleSchema = Type.Union([Type.Literal('member'), Type.Literal('approver'), Type.Literal('manager')], {
  description:
    "The member's role in the lab: approvers and managers approve order requests; managers also manage the lab's members and rule.",
});

const RuleKind = Type.Union([Type.Literal('none'), Type.Literal('all'), Type.Literal('above')], {
  description: 'none: no approval (as without a rule); all: every request; above: requests whose total price is above `threshold`.',
});

export const LabApprovalSettings = Type.Object(
  {
    lab_id: Uuid,
    rule: RuleKind,
    threshold: orNull(ref(Money)),
    my_role: Type.Union([LabRoleSchema, Type.Null()], {
      description: "The caller's effective role in the lab: org admins act as managers; null for none.",
    }),
  },
  { $id: 'LabApprovalSettings', title: 'LabApprovalSettings', additionalProperties: false },
);
export type LabApprovalSettings = Static<typeof LabApprovalSettings>;

export const UpdateLabApprovalSettingsBody = Type.Object(
  {
    rule: RuleKind,
    threshold: Type.Optional(
      orNull(
        Type.Object(
          { amount: Type.String({ maxLength: 40 }), currency: Type.String({ maxLength: 3 }) },
          {
            additionalProperties: false,
            description: 'Required with rule above, otherwise absent or null. amount: minor units ("25000") or major units ("250.00").',
          },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
export type UpdateLabApprovalSettingsBody = Static<typeof UpdateLabApprovalSettingsBody>;

export const UpdateLabMemberBody = Type.Object({ role: LabRoleSchema }, { additionalProperties: false });
export type UpdateLabMemberBody = Static<typeof UpdateLabMemberBody>;
