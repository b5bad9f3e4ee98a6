import type { SignatureEntity } from '../../platform/signatures/entities/signature.entity';
import { toSignatureView } from '../../platform/signatures/signature.service';
import type { UserLightDto } from '../users/dto/user-response.dto';
import type { ChangeRequestDto, ReviewDto } from './dto/review-response.dto';
import type { ChangeRequestEntity } from './entities/change-request.entity';
import type { ReviewEntity } from './entities/review.entity';

const light = (users: Map<number, UserLightDto>, id: number) => users.get(id) ?? null;

export function toChangeRequestDto(
  c: ChangeRequestEntity,
  title: string,
  users: Map<number, UserLightDto>,
): ChangeRequestDto {
  return {
    requestid: c.requestid,
    reviewid: c.reviewid,
    doctype: c.doctype,
    docid: c.docid,
    document_title: title,
    assignee: light(users, c.assigneeUserid),
    requested_by: light(users, c.requestedByUserid),
    description: c.description,
    status: c.status,
    resolved_by_releaseid: c.resolvedByReleaseid,
    created_date: c.createdDate,
    resolved_date: c.resolvedDate,
  };
}

export function toReviewDto(
  r: ReviewEntity,
  title: string,
  users: Map<number, UserLightDto>,
  signature: SignatureEntity | undefined,
  request: ChangeRequestEntity | undefined,
): ReviewDto {
  return {
    reviewid: r.reviewid,
    prdid: r.prdid,
    doctype: r.doctype,
    docid: r.docid,
    document_title: title,
    revisionid: r.revisionid,
    user: light(users, r.userid),
    outcome: r.outcome,
    notes: r.notes,
    source: r.source,
    releaseid: r.releaseid,
    signature: signature ? toSignatureView(signature) : null,
    date: r.createdDate,
    change_request: request ? toChangeRequestDto(request, title, users) : null,
  };
}
