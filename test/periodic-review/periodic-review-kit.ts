import { DataSource } from 'typeorm';
import { AuditEventEntity } from '../../src/platform/audit/entities/audit-event.entity';
import { DomainEventEntity } from '../../src/platform/events/entities/domain-event.entity';
import type { TestApp } from '../utils/test-app';

export const API = '/api/2.0';

export const utc = (y: number, m: number, d: number, h = 0, min = 0, s = 0) => Date.UTC(y, m - 1, d, h, min, s);

export const auditRows = (t: TestApp, entityType: string, id: number) =>
  t.app.get(DataSource).manager.find(AuditEventEntity, {
    where: { entityType, entityId: String(id) },
    order: { auditid: 'ASC' },
  });

export const eventRows = (t: TestApp, entityType: string, id: number) =>
  t.app.get(DataSource).manager.find(DomainEventEntity, {
    where: { entityType, entityId: String(id) },
    order: { eventid: 'ASC' },
  });
