import { Param } from '@nestjs/common';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';

/** The `{guideid}` path parameter of every guide route: an id in range, else 404 "Guide not found". */
export const GuideId = () => Param('guideid', new ParseIdPipe('Guide'));
