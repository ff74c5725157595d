-- CreateTable
CREATE TABLE "api_request_hours" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "endpoint" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "requests" BIGINT NOT NULL,
    "ok" BIGINT NOT NULL,
    "response_time_sum" BIGINT NOT NULL,

    CONSTRAINT "api_request_hours_pkey" PRIMARY KEY ("hour","endpoint","method")
);

-- What the log holds already, counted by the hour.
INSERT INTO "api_request_hours" ("hour", "endpoint", "method", "requests", "ok", "response_time_sum")
SELECT date_trunc('hour', "timestamp"), "endpoint", "method", count(*), count(*) FILTER (WHERE "status_code" < 400), sum("response_time")
  FROM "api_requests"
 GROUP BY 1, 2, 3;
