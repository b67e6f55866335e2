CREATE DATABASE gateway_control;
CREATE DATABASE gateway_ledger;
CREATE DATABASE gateway_analytics;
CREATE DATABASE gateway_insights;
