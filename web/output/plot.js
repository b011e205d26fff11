// Observable Plot, bundled by the build (backprop_playground/steps/bundles.py) into plot.bundle.js, loaded the first time a program draws a chart.
export * from "@observablehq/plot";
