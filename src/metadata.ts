/* eslint-disable */
export default async () => {
    const t = {
        ["./modules/health/health.dto"]: await import("./modules/health/health.dto.js")
    };
    return { "@nestjs/swagger": { "models": [[import("./modules/health/health.dto.js"), { "HealthDto": { status: { required: true, description: "`ok` when the database answers, else `unavailable`.", enum: ["ok", "unavailable"] } } }], [import("./common/validation/pagination.dto.js"), { "PaginationQueryDto": { limit: { required: true, type: () => Number }, offset: { required: true, type: () => Number, default: 0 } } }]], "controllers": [[import("./modules/health/health.controller.js"), { "HealthController": { "check": { type: t["./modules/health/health.dto"].HealthDto } } }]] } };
};