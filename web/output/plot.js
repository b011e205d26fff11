// Observable Plot, bundled by build.py into plot.bundle.js, loaded the first time a program draws a chart.
export * from "@observablehq/plot";
